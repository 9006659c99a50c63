/** Billing words the console shows (spec section 8), free of schemas. Formatting is `@console/shared/format`. */
export * from './texts';
