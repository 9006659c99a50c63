/** A stylesheet imported as a string (`?inline`, see webpack.config.cjs): put in the page by its user. */
declare module '*.css?inline' {
  const css: string;
  export default css;
}

/** A font imported as a data: URL (see webpack.config.cjs). */
declare module '*.woff2' {
  const dataUrl: string;
  export default dataUrl;
}
