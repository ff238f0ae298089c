// The Deployment panel (issue #20): the planner's smallest setups of each catalog device that
// serve `users` at `tps` tokens/s each with the current model, format, context and engine, as a
// sortable table (cheapest to rent first) whose rows open that setup in the calculator.
import { LlmCalc } from './00-namespace.mjs';

const el = LlmCalc.dom.el;
const S = LlmCalc.state;

// What a plan depends on: it is stale once any of these changes.
function planKey(state) {
  return [state.model, state.weights, state.kv, state.ctx, state.engine, state.users, state.tps, state.hw, state.n,
          state.more, state.nodes].join('|');
}

// The calculator state of a setup: its device, count per machine, machines and the users.
function setupState(state, setup) {
  const next = Object.assign({}, state, { hw: setup.device, n: setup.devices_per_machine, nodes: setup.machines,
                                          more: '', batch: state.users, tp: 0, pp: 0, dp: 0, ep: 0 });
  if (setup.parallel && setup.parallel.data > 1) {
    Object.assign(next, { tp: setup.parallel.tensor, pp: setup.parallel.pipeline, dp: setup.parallel.data,
                          ep: setup.parallel.expert ? 1 : 0 });
  }
  return next;
}

function renderPlanView(container, core, state, request, t, f) {
  LlmCalc.dom.clear(container);
  container.dataset.plannedFor = planKey(state);
  const answer = core.plan(Object.assign({}, request, { plan: { users: state.users, tokens_per_s: state.tps } }));
  if (!answer.ok) {
    container.appendChild(el('p', { class: 'error', text: answer.issues.map((i) => i.message).join(' ') }));
    return;
  }
  const r = answer.result;
  const usd = (v) => (typeof v === 'number' ? '$' + f.number(v, v < 10 ? 2 : 0) : '—');
  const layout = (s) => (s.parallel ? 'TP' + s.parallel.tensor + (s.parallel.pipeline > 1 ? ' × PP' + s.parallel.pipeline : '') +
    (s.parallel.data > 1 ? ' × DP' + s.parallel.data : '') + (s.parallel.expert ? ' + EP' : '') : t('layer_split'));
  const describe = (s) => s.name + ' × ' + s.devices_per_machine + (s.machines > 1 ? ' × ' + s.machines + ' ' + t('machines_word') : '');
  const lines = [];
  if (r.current) {
    lines.push(t('plan_current') + ': ' + (r.current.serves ? t('plan_serves') : t('plan_short')) + ' (' +
      f.speed(r.current.tokens_per_s) + ' ' + t('tokens_per_s') + ')');
  }
  if (r.cheapest_to_rent) lines.push(t('plan_rent') + ': ' + describe(r.cheapest_to_rent) + ', ' + usd(r.cheapest_to_rent.rent_usd_per_hour) + '/h');
  if (r.cheapest_to_buy) lines.push(t('plan_buy') + ': ' + describe(r.cheapest_to_buy) + ', ' + usd(r.cheapest_to_buy.buy_usd));
  if (!r.setups.length) lines.push(t('plan_none'));
  container.appendChild(el('ul', { class: 'answers', 'data-testid': 'plan-summary' },
    ...lines.map((line) => el('li', { text: line }))));
  if (!r.setups.length) return;
  const category = { one_device: 0, one_machine: 1, several_machines: 2 };
  const table = LlmCalc.sortableTable({
    csvLabel: t('save_csv'),
    id: 'plan-table',
    rows: r.setups,
    sortKey: 'rent',
    rowAttributes: (s) => ({ 'data-device': s.device }),
    columns: [
      { key: 'device', label: t('hw'), ascending: true, value: (s) => s.name,
        cell: (s) => el('a', { href: S.encodeHash(setupState(state, s)), text: describe(s) }) },
      { key: 'kind', label: t('plan_kind'), ascending: true, value: (s) => category[s.category], cell: (s) => t('plan_' + s.category) },
      { key: 'layout', label: t('parallel_section'), ascending: true, value: (s) => layout(s), cell: (s) => layout(s) },
      { key: 'speed', label: t('decode'), value: (s) => s.tokens_per_s, cell: (s) => f.speed(s.tokens_per_s) + ' ' + t('tokens_per_s') },
      { key: 'rent', label: t('plan_rent_col'), ascending: true,
        value: (s) => (typeof s.rent_usd_per_hour === 'number' ? s.rent_usd_per_hour : Infinity),
        cell: (s) => usd(s.rent_usd_per_hour) + (s.rent_offer ? ' (' + s.rent_offer.provider + ')' : '') },
      { key: 'buy', label: t('plan_buy_col'), ascending: true,
        value: (s) => (typeof s.buy_usd === 'number' ? s.buy_usd : Infinity), cell: (s) => usd(s.buy_usd) },
    ],
  });
  container.appendChild(table.element);
}

// Clears a plan made for other settings, saying so.
function clearStalePlan(container, state, t) {
  if (!container.dataset.plannedFor || container.dataset.plannedFor === planKey(state)) return;
  delete container.dataset.plannedFor;
  LlmCalc.dom.clear(container);
  container.appendChild(el('p', { class: 'hint', 'data-testid': 'plan-stale', text: t('plan_stale') }));
}

LlmCalc.renderPlanView = renderPlanView;
LlmCalc.clearStalePlan = clearStalePlan;
