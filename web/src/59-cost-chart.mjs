// Cumulative cost of owning, renting and calling an API over 36 months, or to the year after a
// later break-even (the core's cost.chart):
// owning starts at the purchase price and grows by electricity; renting and the API grow from
// zero. Where the own line crosses another is the break-even month.
import { LlmCalc } from './00-namespace.mjs';

LlmCalc.renderCostChart = function (container, cost, t, f) {
  // Most settings (the context slider among them) leave the costs as they were: then the chart
  // stays as drawn.
  const drawn = JSON.stringify([cost.chart, t('cost_own'), f.number(1, 1)]);
  if (container.drawn === drawn) return;
  container.drawn = drawn;
  LlmCalc.dom.clear(container);
  const months = cost.chart;
  const series = [['own_usd', 'own', t('cost_own')], ['rent_usd', 'rent', t('cost_rent')], ['api_usd', 'api', t('cost_api')]]
    .map(([key, className, name]) => ({
      className: className,
      name: name,
      points: months.filter((m) => typeof m[key] === 'number').map((m) => ({ x: m.month, y: m[key] })),
    }))
    .filter((s) => s.points.length);
  const values = series.flatMap((s) => s.points.map((p) => p.y));
  if (!values.length) return;
  const last = months[months.length - 1].month;
  const yMax = Math.max(1, ...values) * 1.05;
  container.appendChild(LlmCalc.lineChart({
    label: t('cost_chart_label').replace('{months}', String(last)),
    position: (month) => month / last,
    ticks: [0, 1, 2, 3, 4, 5, 6].map((k) => (k * last) / 6).map((m) => ({ at: m, text: m + ' ' + t('months_short') })),
    yMax: yMax,
    yText: '$' + f.number(yMax, 0),
    series: series,
  }));
  container.appendChild(LlmCalc.chartButtons(container.firstChild, 'cost-chart', t));
};
