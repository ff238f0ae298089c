// The catalog as the page reads it at start (web/src/60-element.mjs, 56-machine-editor.mjs,
// 57-explore-view.mjs): model ids, names and published formats; device and link ids and names;
// the engine releases and the menus' values. dist/llmcalc_core.js carries this much (web/build.mjs);
// the rest of each record (repositories, sources, device figures) stays in the module's catalog().
const pick = (keys) => (record) => Object.fromEntries(keys.map((key) => [key, record[key]]));

// Models and devices come in the order the page's menus list them, by name: sorted here, where
// the comparison's Intl.Collator costs nothing at a page's start (a page's first Intl object costs
// Chromium ICU's start, issue #22).
const byName = (a, b) => a.name.localeCompare(b.name, 'en');

export function pageListing(catalog) {
  return Object.assign({}, catalog, {
    models: catalog.models.map(pick(['id', 'name', 'published_formats'])).sort(byName),
    devices: catalog.devices.map(pick(['id', 'name'])).sort(byName),
    links: catalog.links.map(pick(['id', 'name'])),
  });
}
