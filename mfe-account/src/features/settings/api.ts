/** General Settings' calls and query key (['settings']); both need company_settings. */
import { api } from '@console/shared/api';
import { GeneralSettings, type GeneralSettingsPatch } from '@console/shared/contracts';

export const SETTINGS_KEY = ['settings'] as const;

/** GET /v1/settings: the community's name, e-mail defaults, postal address and time zone. */
export const fetchSettings = () => api.get('/v1/settings', GeneralSettings);

/** PATCH /v1/settings: only the given fields change; null clears an optional one. 400 {message, errors}. */
export const updateSettings = (patch: GeneralSettingsPatch) => api.patch('/v1/settings', GeneralSettings, patch);
