import { api } from '@console/shared/api';
import {
  MessageResponse,
  Segment,
  SegmentFieldList,
  SegmentPage,
  SegmentPreview,
  type SegmentGroup,
  type SegmentInput,
} from '@console/shared/contracts';

/** Every query of this feature starts with this key: invalidate it after a change. */
export const SEGMENTS_KEY = ['segments'] as const;

const path = (id: string) => `/v1/segments/${encodeURIComponent(id)}`;

export const fetchSegments = (query: Record<string, string | number>) => api.get('/v1/segments', SegmentPage, query);

export const createSegment = (input: SegmentInput) => api.post('/v1/segments', Segment, input);

export const updateSegment = (id: string, input: SegmentInput) => api.patch(path(id), Segment, input);

export const deleteSegment = (id: string) => api.delete(path(id), MessageResponse);

/** The live count and the first matches of a rule (the query a send to the segment uses). */
export const previewSegment = (rule: SegmentGroup, limit = 10) =>
  api.post('/v1/segments/preview', SegmentPreview, { rule, limit });

/**
 * The fields the builder offers: contact fields, custom attributes and the watched contracts' on-chain
 * fields, served from the segments side (permission manage_contacts): the allowlist the gateway
 * compiles rules against.
 */
export const segmentFieldsQuery = () => ({
  queryKey: [...SEGMENTS_KEY, 'fields'] as const,
  queryFn: () => api.get('/v1/segments/fields', SegmentFieldList),
});

/** The lists screens' all-lists query (one cache entry for every screen). */
export { allListsQuery } from '../lists/api';
