// mjml-social ships no types: the one class the renderer extends (render/social.ts).
declare module 'mjml-social' {
  export class SocialElement {
    constructor(initialData?: unknown);
    getAttribute(name: string): unknown;
    getSocialAttributes(): Record<string, unknown>;
  }
}
