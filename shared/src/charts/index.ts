/**
 * Charts for numbers people compare (overview, delivery logs): loaded only by the screens that draw
 * one (this entry is not part of any start-up), each with a table alternative.
 */
export { TimeSeriesChart, type TimeSeriesChartProps } from './time-series-chart';
export { BarList, type BarListProps } from './bar-list';
export { SERIES_COLORS, colorAt, shares, tableRows, type Series } from './series';
