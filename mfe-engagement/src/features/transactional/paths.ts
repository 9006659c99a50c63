export const TRANSACTIONAL_PATH = '/engagement/transactional-emails';
export const transactionalTemplatePath = (id: string) => `${TRANSACTIONAL_PATH}/${encodeURIComponent(id)}`;
