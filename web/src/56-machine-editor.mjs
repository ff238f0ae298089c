// Devices and machines (issue #20): more device groups beside the main device (each with a count
// and the machine it sits in), copies of the machine, the network between machines, the system
// RAM, a custom device, and vLLM / SGLang's parallel layout. Every control is a share-link key
// (state.js); a value out of range is refused beside its box.
import { LlmCalc } from './00-namespace.mjs';

const el = LlmCalc.dom.el;
const option = LlmCalc.dom.option;
const S = LlmCalc.state;

// Whole-number boxes: key -> [min, max]. 0 where it means "the default".
const NUMBERS = { nodes: [1, 64], ram: [1, 65536], ram_bw: [0, 100000], pcie: [0, 1000], tp: [0, 1024], pp: [0, 1024], dp: [0, 1024] };
const CUSTOM_PARTS = [['cdev_mem', 1, 999999], ['cdev_bw', 1, 999999], ['cdev_tflops', 1, 9999999]];

// devices: catalog devices sorted by name; links: catalog links; onSet(key, value) commits.
LlmCalc.machineEditor = function (t, devices, links, onSet) {
  const deviceName = (id) => (id === 'custom' ? t('custom_device') : (devices.find((d) => d.id === id) || {}).name || id);
  const deviceMenu = (id, label) => {
    const menu = el('select', { 'aria-label': label });
    devices.forEach((d) => menu.appendChild(option(d.id, d.name)));
    menu.appendChild(option('custom', t('custom_device')));
    menu.value = id;
    return menu;
  };
  const details = el('details', { class: 'advanced', id: 'machines' },
    el('summary', { text: t('machines_section') }), el('p', { class: 'hint', text: t('machines_hint') }));
  const groupList = el('div', { class: 'groups', 'data-testid': 'device-groups' });
  const addButton = el('button', { type: 'button', id: 'add-group', text: t('add_group') });
  details.appendChild(groupList);
  details.appendChild(addButton);

  const inputs = {};
  const errors = {};
  const numberBox = (key, min, max, onValue) => {
    const message = t('invalid_whole_number').replace('{min}', String(min)).replace('{max}', String(max));
    // A 0 minimum means "the default": the box may be emptied.
    const box = LlmCalc.numberBox(key, min, max, { message: message, empty: min === 0 ? 0 : undefined }, onValue);
    inputs[key] = box.input;
    errors[key] = box.error;
    return el('div', { class: 'field' }, el('label', { for: 'f-' + key, text: t(key) }), box.input, box.error);
  };
  Object.keys(NUMBERS).forEach((key) => {
    if (key === 'tp') return;  // the parallel layout has its own group below
    if (key === 'pp' || key === 'dp') return;
    details.appendChild(numberBox(key, NUMBERS[key][0], NUMBERS[key][1], (value) => onSet(key, value)));
  });
  const network = el('select', { id: 'f-net' }, option('', t('net_auto')));
  links.forEach((link) => network.appendChild(option(link.id, link.name)));
  network.addEventListener('change', () => onSet('net', network.value));
  details.appendChild(el('div', { class: 'field' }, el('label', { for: 'f-net', text: t('net') }), network));

  // The custom device: memory, bandwidth, FP16 compute and NVIDIA generation (picked as "Custom
  // device" in a menu).
  let state = null;
  const custom = el('fieldset', { class: 'custom-device' }, el('legend', { text: t('custom_device') }));
  // Pascal cards run llama.cpp without CUDA graphs (and the P100 without dp4a): the core's
  // cuda_compute_capability, x 10 in the link.
  const arch = el('select', { id: 'f-cdev_arch' }, option('', t('cdev_arch_new')), option('61', t('cdev_arch_61')),
    option('60', t('cdev_arch_60')));
  const commitCustom = () => {
    // Committed once all three figures are in.
    const parts = CUSTOM_PARTS.map(([part]) => inputs[part].value.trim());
    if (parts.every((p) => /^\d{1,7}$/.test(p))) onSet('cdev', parts.concat(arch.value ? [arch.value] : []).join(':'));
  };
  CUSTOM_PARTS.forEach(([key, min, max]) => custom.appendChild(numberBox(key, min, max, commitCustom)));
  arch.addEventListener('change', commitCustom);
  custom.appendChild(el('div', { class: 'field' }, el('label', { for: 'f-cdev_arch', text: t('cdev_arch') }), arch));
  // Peer-to-peer over PCIe decides vLLM's and SGLang's all-reduce between two such cards.
  const p2p = el('input', { id: 'f-cdev_p2p', type: 'checkbox' });
  p2p.addEventListener('change', () => onSet('cdev_p2p', p2p.checked ? 1 : 0));
  custom.appendChild(el('div', { class: 'field' }, el('label', { for: 'f-cdev_p2p', text: t('cdev_p2p') }), p2p));
  details.appendChild(custom);

  const parallel = el('fieldset', { class: 'parallel' }, el('legend', { text: t('parallel_section') }),
    el('p', { class: 'hint', text: t('parallel_hint') }));
  ['tp', 'pp', 'dp'].forEach((key) => parallel.appendChild(numberBox(key, NUMBERS[key][0], NUMBERS[key][1], (value) => onSet(key, value))));
  const expert = el('input', { id: 'f-ep', type: 'checkbox' });
  expert.addEventListener('change', () => onSet('ep', expert.checked ? 1 : 0));
  parallel.appendChild(el('div', { class: 'field' }, el('label', { for: 'f-ep', text: t('ep') }), expert));
  details.appendChild(parallel);

  const commitGroups = (groups) => onSet('more', S.formatGroups(groups));
  addButton.addEventListener('click', () => {
    const groups = S.parseGroups(state.more);
    if (groups.length >= 16) return;
    groups.push({ id: state.hw, count: 1, node: 0 });
    commitGroups(groups);
  });

  // Rebuilt only when the groups changed (a keystroke elsewhere leaves the rows, and any edit
  // the user is making in them, as they are).
  let shownGroups = null;
  function renderGroups() {
    if (state.more === shownGroups) return;
    shownGroups = state.more;
    LlmCalc.dom.clear(groupList);
    const groups = S.parseGroups(state.more);
    groups.forEach((group, index) => {
      const label = t('group') + ' ' + (index + 2);
      const menu = deviceMenu(group.id, label + ': ' + t('hw'));
      menu.id = 'f-group-' + index + '-device';
      const count = el('input', { id: 'f-group-' + index + '-count', type: 'number', min: 1, max: 1024, step: 1,
                                  value: group.count, 'aria-label': label + ': ' + t('n') });
      const machine = el('input', { id: 'f-group-' + index + '-machine', type: 'number', min: 0, max: 63, step: 1,
                                    value: group.node, 'aria-label': label + ': ' + t('machine') });
      const remove = el('button', { type: 'button', class: 'remove', text: t('remove'), 'aria-label': t('remove') + ' ' + label });
      const update = () => {
        const c = Number(count.value);
        const m = Number(machine.value);
        if (!Number.isInteger(c) || c < 1 || c > 1024 || !Number.isInteger(m) || m < 0 || m > 63) {
          count.setAttribute('aria-invalid', String(!(Number.isInteger(c) && c >= 1 && c <= 1024)));
          machine.setAttribute('aria-invalid', String(!(Number.isInteger(m) && m >= 0 && m <= 63)));
          return;
        }
        groups[index] = { id: menu.value, count: c, node: m };
        commitGroups(groups);
      };
      menu.addEventListener('change', update);
      count.addEventListener('change', update);
      machine.addEventListener('change', update);
      remove.addEventListener('click', () => commitGroups(groups.filter((g, i) => i !== index)));
      groupList.appendChild(el('div', { class: 'row group', 'data-testid': 'device-group' }, menu,
        el('span', { class: 'hint', text: '×' }), count, el('span', { class: 'hint', text: t('machine') }), machine, remove));
    });
    groupList.hidden = groups.length === 0;
    addButton.disabled = groups.length >= 16;
  }

  return {
    element: details,
    deviceName: deviceName,
    // scenario: the core's resolved inputs (for the defaults the placeholders show), or null.
    render(current, scenario, f) {
      state = current;
      const listed = S.parseGroups(state.more);
      if (listed.length || state.nodes > 1 || state.net || state.ram !== S.DEFAULTS.ram || state.ram_bw || state.pcie ||
          state.tp || state.pp || state.dp || state.ep || state.cdev || state.hw === 'custom') {
        details.open = true;
      }
      renderGroups();
      Object.keys(NUMBERS).forEach((key) => {
        LlmCalc.dom.showValid(inputs[key], NUMBERS[key][0] === 0 && !state[key] ? '' : String(state[key]), errors[key]);
      });
      inputs.ram_bw.placeholder = scenario ? f.number(scenario.system_memory_bandwidth_bytes_per_s / 1e9, 1) : '';
      inputs.pcie.placeholder = scenario ? f.number(scenario.host_link_bytes_per_s / 1e9, 1) : '';
      ['tp', 'pp', 'dp'].forEach((key) => { inputs[key].placeholder = t('auto'); });
      inputs.nodes.disabled = listed.length > 0;  // a list names each group's machine
      LlmCalc.dom.setValue(network, state.net);
      expert.checked = state.ep === 1;
      const parts = state.cdev ? state.cdev.split(':') : ['', '', ''];
      CUSTOM_PARTS.forEach(([key], index) => { LlmCalc.dom.setValue(inputs[key], parts[index]); });
      LlmCalc.dom.setValue(arch, parts[3] === '60' || parts[3] === '61' ? parts[3] : '');
      p2p.checked = state.cdev_p2p === 1;
      custom.hidden = !(state.hw === 'custom' || listed.some((g) => g.id === 'custom'));
    },
  };
};
