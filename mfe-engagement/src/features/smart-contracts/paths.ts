export const SMART_CONTRACTS_PATH = '/engagement/smart-contracts';
export const smartContractPath = (id: string) => `${SMART_CONTRACTS_PATH}/${encodeURIComponent(id)}`;
/** A contact's page: the Contacts screen with that contact's slide-over open. */
export const contactPath = (id: string) => `/engagement/contacts?contact=${encodeURIComponent(id)}`;
