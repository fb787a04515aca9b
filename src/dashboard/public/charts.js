// Drawing: uPlot line charts over a table's interval keys, the heat map (a table whose
// cells are shaded), tables, and CSV downloads. Every view draws from the same
// `{columns, rows}` table its table view shows and its CSV holds.
import uPlot from './uplot.js';
import { formatValue, toCsv } from './format.js';

/** Series colours, each at least 4.5:1 against the white background. */
export const COLORS = ['#1d4ed8', '#c2410c', '#15803d', '#a16207', '#b91c1c'];

/** Tick steps for durations: seconds, minutes, hours, days. */
const DURATION_STEPS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400, 172800, 604800];
const INDEX_STEPS = [1, 2, 3, 4, 5, 7, 10, 14, 20, 30, 50, 100, 200, 500];
const CHART_HEIGHT = 220;
/** The interval labels' font (dashboard.css `.x-labels` writes the same), and the room kept between two of them. */
const LABEL_FONT = '12px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
const LABEL_GAP = 16;

let measuring;
/** The width `text` takes in LABEL_FONT, in CSS pixels. */
function textWidth(text) {
  measuring ??= document.createElement('canvas').getContext('2d');
  measuring.font = LABEL_FONT;
  return measuring.measureText(text).width;
}

/**
 * The interval keys under the plot, as text rather than drawn on the canvas, so that nothing
 * overlaps and they can be read (and measured) like any text: uPlot places the ticks at least the
 * widest key plus a gap apart, and each labelled tick gets its key centred under it, shifted inside
 * the chart at its edges; a label that would then touch the one before it is left out.
 */
function intervalLabels(keys) {
  let splits = [];
  const layer = document.createElement('div');
  layer.className = 'x-labels';
  layer.setAttribute('aria-hidden', 'true');
  return {
    space: Math.ceil(Math.max(0, ...keys.map((key) => textWidth(String(key))))) + LABEL_GAP,
    /** uPlot's tick labels: kept for `draw`, none on the canvas. */
    values(_u, ticks) {
      splits = ticks;
      return ticks.map(() => '');
    },
    draw(u) {
      const wrap = u.root.querySelector('.u-wrap');
      if (layer.parentElement !== wrap) wrap.append(layer);
      layer.style.top = `${(u.bbox.top + u.bbox.height) / uPlot.pxRatio + 8}px`;
      layer.replaceChildren();
      const width = wrap.clientWidth;
      let end = -Infinity;
      for (const split of splits) {
        const key = keys[split];
        if (key === undefined) continue;
        const label = document.createElement('span');
        label.textContent = key;
        layer.append(label);
        const own = label.offsetWidth;
        const centre = u.bbox.left / uPlot.pxRatio + u.valToPos(split, 'x');
        const left = Math.max(0, Math.min(width - own, centre - own / 2));
        if (left < end + LABEL_GAP / 2) {
          label.remove();
          continue;
        }
        label.style.left = `${left}px`;
        end = left + own;
      }
    },
  };
}

/**
 * What the legend under a chart says: by default each series' figure over the whole range (its
 * `table.summary`: a total, or a median over the range, not a sum of the intervals'), and while
 * the pointer is on an interval, that interval's figures.
 */
function legend(element, table, series, colors, format) {
  const heading = document.createElement('span');
  heading.className = 'legend-heading';
  const values = series.map((column, i) => {
    const value = document.createElement('span');
    value.className = 'legend-value';
    const item = document.createElement('span');
    item.className = 'legend-item';
    const marker = document.createElement('span');
    marker.className = 'legend-marker';
    marker.style.borderColor = colors[i % colors.length];
    item.append(marker, `${table.columns[column].label} `, value);
    return { column, value, item };
  });
  element.replaceChildren(heading, ...values.map(({ item }) => item));
  const show = (row) => {
    heading.textContent = `${row === null ? table.summary[0] : table.rows[row][0]}:`;
    for (const { column, value } of values) value.textContent = format(row === null ? table.summary[column] : table.rows[row][column]);
  };
  show(null);
  return show;
}

/**
 * A line chart of `table`'s columns `series` (indexes; one unit) against its first
 * column, the interval keys, as categories: uPlot's own time axis would show the
 * browser's zone, not the one the numbers were counted in. Its legend goes into
 * `legendElement`.
 */
export function drawLines(container, legendElement, table, series, colors = COLORS) {
  container.replaceChildren();
  const keys = table.rows.map((row) => row[0]);
  const unit = table.columns[series[0]].unit;
  const format = (value) => formatValue(unit, value);
  const labels = intervalLabels(keys);
  const showLegend = legend(legendElement, table, series, colors, format);
  const options = {
    width: chartWidth(container),
    height: CHART_HEIGHT,
    legend: { show: false },
    scales: {
      x: { time: false, range: (_u, min, max) => [(min ?? 0) - 0.5, (max ?? 0) + 0.5] },
      y: { range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1] },
    },
    axes: [
      { incrs: INDEX_STEPS, space: labels.space, size: 36, values: labels.values },
      { size: 80, incrs: unit === 'duration' ? DURATION_STEPS : undefined, values: (_u, splits) => splits.map(format) },
    ],
    series: [
      { label: table.columns[0].label },
      ...series.map((column, i) => ({
        label: table.columns[column].label,
        stroke: colors[i % colors.length],
        width: 2,
        points: { show: true, size: 5 },
      })),
    ],
    hooks: {
      draw: [labels.draw],
      setCursor: [(u) => showLegend(u.cursor.idx ?? null)],
    },
  };
  const data = [keys.map((_key, i) => i), ...series.map((column) => table.rows.map((row) => row[column]))];
  return new uPlot(options, data, container);
}

/** The width a chart can take in its container (charts are redrawn at this width when the window resizes). */
export function chartWidth(container) {
  return Math.max(260, Math.floor(container.clientWidth));
}

function cell(tag, text, attributes = {}) {
  const element = document.createElement(tag);
  element.textContent = text;
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  return element;
}

/** A value cell: the formatted text, and the raw number in data-value (empty for no data). */
function valueCell(unit, value) {
  const td = cell('td', formatValue(unit, value), { 'data-value': value === null || value === undefined ? '' : String(value) });
  if (unit !== 'text') td.className = 'num';
  return td;
}

/**
 * Fills `element` (a <table>) with `table`. Row headers are the first column. With
 * `sort`, column headers are buttons that call `sort.onSort(column)`.
 */
export function renderTable(element, table, caption, sort) {
  const head = document.createElement('tr');
  table.columns.forEach((column, i) => {
    const th = cell('th', '', { scope: 'col' });
    if (column.unit !== 'text' && column.unit !== 'key') th.className = 'num';
    if (sort) {
      const button = cell('button', column.label, { type: 'button' });
      button.addEventListener('click', () => sort.onSort(i));
      th.append(button);
      th.setAttribute('aria-sort', sort.column === i ? (sort.descending ? 'descending' : 'ascending') : 'none');
    } else {
      th.textContent = column.label;
    }
    head.append(th);
  });
  const body = document.createElement('tbody');
  for (const row of table.rows) {
    const tr = document.createElement('tr');
    tr.append(cell('th', String(row[0]), { scope: 'row' }), ...row.slice(1).map((value, i) => valueCell(table.columns[i + 1].unit, value)));
    body.append(tr);
  }
  const thead = document.createElement('thead');
  thead.append(head);
  const parts = [cell('caption', caption), thead, body];
  if (table.summary) {
    const [label, ...values] = table.summary;
    const foot = document.createElement('tfoot');
    const tr = document.createElement('tr');
    tr.append(cell('th', label, { scope: 'row' }), ...values.map((value, i) => valueCell(table.columns[i + 1].unit, value)));
    foot.append(tr);
    parts.push(foot);
  }
  element.replaceChildren(...parts);
}

const BASE = [240, 244, 250];
const FULL = [13, 59, 140];
const luminance = (rgb) =>
  rgb
    .map((c) => c / 255)
    .map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4))
    .reduce((sum, c, i) => sum + c * [0.2126, 0.7152, 0.0722][i], 0);

/** A cell's shade for `share` (0..1) and whichever of black and white text reads better on it (at least 4.5:1). */
function shade(share) {
  const rgb = BASE.map((base, i) => Math.round(base + (FULL[i] - base) * share));
  const l = luminance(rgb);
  return { background: `rgb(${rgb.join(' ')})`, color: 1.05 / (l + 0.05) > (l + 0.05) / 0.05 ? '#ffffff' : '#000000' };
}

/** The heat map: the table itself, each count cell shaded by its share of the largest. */
export function renderHeatmap(element, table, caption) {
  renderTable(element, table, caption);
  const max = Math.max(1, ...table.rows.flatMap((row) => row.slice(1)));
  element.querySelectorAll('tbody td').forEach((td) => {
    const { background, color } = shade(Number(td.dataset.value) / max);
    td.style.backgroundColor = background;
    td.style.color = color;
  });
}

/** Saves `table` as a CSV file named `filename`. */
export function downloadCsv(filename, table) {
  const url = URL.createObjectURL(new Blob([toCsv(table)], { type: 'text/csv;charset=utf-8' }));
  const link = cell('a', '', { href: url, download: filename });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
