/** Billing words and money/date formatting (spec section 8), free of schemas. */
export * from './format';
export * from './texts';
