export interface TriedArea {
  signInUrl: string;
  shellUrl: string;
  remoteUrl: string;
  gateway: string;
  as: string;
  stop(): Promise<unknown>;
}
export const AREAS: Record<string, { pkg: string; start: string; as: string }>;
export function tryArea(
  area: string,
  options?: { as?: string; built?: boolean; env?: Record<string, string | undefined> },
): Promise<TriedArea>;
