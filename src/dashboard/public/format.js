// How numbers read on the dashboard: durations as m:ss or h:mm with their unit,
// counts with digit grouping, and CSV (raw numbers: durations in seconds).

const counts = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });
const percents = new Intl.NumberFormat('en-US', { style: 'percent', maximumFractionDigits: 1 });

/** Seconds as `m:ss min` under an hour, else `h:mm h`; `–` for no data. */
export function formatDuration(seconds) {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return '–';
  const whole = Math.round(seconds);
  if (whole < 3600) return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')} min`;
  const minutes = Math.round(whole / 60);
  return `${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, '0')} h`;
}

/** A cell or card value as text, by its column's unit. */
export function formatValue(unit, value) {
  if (value === null || value === undefined) return '–';
  switch (unit) {
    case 'duration':
      return formatDuration(value);
    case 'count':
      return counts.format(value);
    case 'percent':
      return percents.format(value);
    default:
      return String(value);
  }
}

const csvField = (value) => {
  const text = value === null || value === undefined ? '' : String(value);
  return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};

/** A table (`{columns, rows}`) as CSV: a header row, then raw values (durations in seconds, no data empty). */
export function toCsv(table) {
  const header = table.columns.map((column) => (column.unit === 'duration' ? `${column.label} (seconds)` : column.label));
  return [header, ...table.rows].map((row) => row.map(csvField).join(',')).join('\r\n') + '\r\n';
}
