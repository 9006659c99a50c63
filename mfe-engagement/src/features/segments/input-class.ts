/** The rule builder's inputs and selects (react-querybuilder's own CSS is not loaded). */
export const INPUT_CLASS =
  'rounded-control border-0 bg-white px-3 py-1.5 text-sm text-slate-900 shadow-sm ring-1 ring-slate-300 ring-inset focus:ring-2 focus:ring-brand-600 focus:outline-none';
