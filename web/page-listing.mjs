// The catalog as the page reads it at start (web/src/60-element.mjs, 56-machine-editor.mjs,
// 57-explore-view.mjs): model ids, names and published formats (where a model has any); device
// and link ids and names; the menus' values. dist/llmcalc_core.js carries this much (web/build.mjs);
// the rest of each record (repositories, sources, device figures) stays in the module's catalog(),
// and so do the engine releases, which the page shows from each estimate's own `engine`.
const pick = (keys) => (record) => Object.fromEntries(keys.filter((key) => key in record).map((key) => [key, record[key]]));
const withoutEmpty = (record) => Object.fromEntries(Object.entries(record).filter(([, value]) => !Array.isArray(value) || value.length));

// Models and devices come in the order the page's menus list them, by name: sorted here, where
// the comparison's Intl.Collator costs nothing at a page's start (a page's first Intl object costs
// Chromium ICU's start, issue #22).
const byName = (a, b) => a.name.localeCompare(b.name, 'en');

export function pageListing(catalog) {
  const { engine_releases: _releases, ...menus } = catalog;
  return Object.assign(menus, {
    models: catalog.models.map(pick(['id', 'name', 'published_formats'])).map(withoutEmpty).sort(byName),
    devices: catalog.devices.map(pick(['id', 'name'])).sort(byName),
    links: catalog.links.map(pick(['id', 'name'])),
  });
}
