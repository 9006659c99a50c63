/** The look of a native select next to the shared TextField. */
export const SELECT_CLASS =
  'block w-full rounded-control border-0 bg-white py-2 pr-8 pl-3 text-sm text-slate-900 shadow-sm ring-1 ring-slate-300 ring-inset focus:ring-2 focus:ring-brand-600 focus:outline-none disabled:bg-slate-50';
