import { colorAt, shares } from './series';

export interface BarListProps {
  title: string;
  items: { label: string; value: number }[];
  /** How a value is written next to its bar. */
  format?: (value: number) => string;
}

/** Horizontal bars for figures people compare (a table underneath: readable without the bars). */
export function BarList({ title, items, format = (v) => v.toLocaleString('en-US') }: BarListProps) {
  const widths = shares(items.map((i) => i.value));
  return (
    <table className="w-full text-sm">
      <caption className="mb-2 text-left font-semibold text-slate-900">{title}</caption>
      <tbody>
        {items.map((item, i) => (
          <tr key={`${item.label}-${i}`}>
            <th scope="row" className="w-1/3 py-1 pr-2 text-left font-normal text-slate-700">
              {item.label}
            </th>
            <td className="py-1" aria-hidden="true">
              <div className="h-3 rounded bg-slate-100">
                <div
                  className="h-3 rounded"
                  style={{ width: `${Math.round((widths[i] ?? 0) * 100)}%`, backgroundColor: colorAt(0) }}
                />
              </div>
            </td>
            <td className="w-24 py-1 pl-2 text-right tabular-nums text-slate-900">{format(item.value)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
