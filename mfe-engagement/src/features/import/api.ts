import { api, saveBlob } from '@console/shared/api';
import { ImportJob, ImportJobPage, type StartImportBody } from '@console/shared/contracts';

/** Every query of this feature starts with this key: invalidate it after a change. */
export const IMPORTS_KEY = ['imports'] as const;

/** One job's progress. */
export const importJobKey = (id: string) => [...IMPORTS_KEY, 'job', id] as const;

const path = (id: string) => `/v1/imports/${encodeURIComponent(id)}`;

/**
 * Send the file as the raw body. Browsers label .csv files inconsistently (Windows with Excel says
 * application/vnd.ms-excel, some say nothing): a slice with an explicit type sends the same bytes as text/csv.
 */
export function uploadImportFile(file: File) {
  const body = file.type === 'text/csv' ? file : file.slice(0, file.size, 'text/csv');
  return api.upload('/v1/imports', ImportJob, body, { fileName: file.name });
}

export const startImport = (id: string, body: StartImportBody) => api.post(`${path(id)}/start`, ImportJob, body);

export const fetchImport = (id: string) => api.get(path(id), ImportJob);

export const cancelImport = (id: string) => api.post(`${path(id)}/cancel`, ImportJob);

export const fetchImports = (query: Record<string, string | number>) => api.get('/v1/imports', ImportJobPage, query);

/** The failed rows with their reasons, saved as import-<id>-failures.csv. */
export async function downloadFailures(id: string): Promise<void> {
  const blob = await api.download(`${path(id)}/failures`);
  saveBlob(blob, `import-${id}-failures.csv`);
}

/** The lists screens' all-lists query (one cache entry for every screen). */
export { allListsQuery } from '../lists/api';
