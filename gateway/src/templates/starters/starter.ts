/** What a starter gives a new template. */
export interface StarterDesign {
  subject: string;
  preview_text: string;
  mjml: string;
}
