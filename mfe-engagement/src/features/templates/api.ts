/** The templates feature's calls and query keys (everything under ['templates']). */
import { infiniteQueryOptions, queryOptions, type QueryClient } from '@tanstack/react-query';
import { api } from '@console/shared/api';
import {
  ContactPage,
  MergeTagCatalogue,
  MessageResponse,
  PresignResponse,
  Template,
  TemplateHtml,
  TemplateImagePage,
  TemplatePage,
  TemplatePreview,
  TemplateSaved,
  TemplateStarterList,
  TemplateStarterHtml,
  TemplateGalleryBody,
  TemplateTestSent,
  TemplateVersionList,
  UPLOAD_NAME_MAX,
  type TemplateCreate,
  type TemplateUpdate,
} from '@console/shared/contracts';

/** Every query of this feature starts with this key: invalidate it after a change. */
export const TEMPLATES_KEY = ['templates'] as const;

const path = (id: string) => `/v1/templates/${encodeURIComponent(id)}`;

export const fetchTemplates = (query: Record<string, string | number>) => api.get('/v1/templates', TemplatePage, query);

/** The marketing templates an e-mail may use: readable with the e-mails permission too (compose). */
export const fetchTemplateChoices = (query: Record<string, string | number>) =>
  api.get('/v1/templates/choices', TemplatePage, query);

export const fetchTemplate = (id: string) => api.get(path(id), Template);

export const createTemplate = (input: TemplateCreate) => api.post('/v1/templates', Template, input);

/** A rename or a designer save: the answer carries the template and its unknown merge tags. */
export const updateTemplate = (id: string, input: TemplateUpdate) => api.patch(path(id), TemplateSaved, input);

export const duplicateTemplate = (id: string, name?: string) =>
  api.post(`${path(id)}/duplicate`, Template, name === undefined ? {} : { name });

export const deleteTemplate = (id: string) => api.delete(path(id), MessageResponse);

export const fetchVersions = (id: string) => api.get(`${path(id)}/versions`, TemplateVersionList);

/** Restoring saves the version's content as a new version: the answer is a save's. */
export const restoreVersion = (id: string, version: number) =>
  api.post(`${path(id)}/versions/${version}/restore`, TemplateSaved, {});

export const fetchTemplateHtml = (id: string) => api.get(`${path(id)}/html`, TemplateHtml);

export const previewTemplate = (id: string, contactId: string | null) =>
  api.post(`${path(id)}/preview`, TemplatePreview, { contact_id: contactId });

export const sendTestTemplate = (id: string, recipients: string[], contactId: string | null) =>
  api.post(`${path(id)}/test`, TemplateTestSent, { recipients, contact_id: contactId });

export const templateQuery = (id: string) =>
  queryOptions({ queryKey: [...TEMPLATES_KEY, 'one', id], queryFn: () => fetchTemplate(id), retry: false });

export const versionsQuery = (id: string) =>
  queryOptions({ queryKey: [...TEMPLATES_KEY, 'versions', id], queryFn: () => fetchVersions(id) });

/** A thumbnail's HTML, keyed by the version it shows: a new version is a new entry, an old one never changes. */
export const thumbnailQuery = (id: string, version: number) =>
  queryOptions({
    queryKey: [...TEMPLATES_KEY, 'html', id, version],
    queryFn: () => fetchTemplateHtml(id),
    staleTime: Infinity,
  });

const GALLERY_CHOICE = 'gallery:';

/**
 * A starter's thumbnail: a built-in starter by key, a platform design as `gallery:<id>`. Starters do
 * not change while the console runs.
 */
export const starterThumbnailQuery = (starter: string) =>
  queryOptions({
    queryKey: [...TEMPLATES_KEY, 'starter-html', starter],
    queryFn: () =>
      api.get(
        starter.startsWith(GALLERY_CHOICE)
          ? `/v1/templates/starters/gallery/${encodeURIComponent(starter.slice(GALLERY_CHOICE.length))}/html`
          : `/v1/templates/starters/${encodeURIComponent(starter)}/html`,
        TemplateStarterHtml,
      ),
    staleTime: Infinity,
  });

export const startersQuery = () =>
  queryOptions({
    queryKey: [...TEMPLATES_KEY, 'starters'],
    queryFn: () => api.get('/v1/templates/starters', TemplateStarterList),
    staleTime: Infinity,
  });

export const mergeTagsQuery = () =>
  queryOptions({
    queryKey: [...TEMPLATES_KEY, 'merge-tags'],
    queryFn: () => api.get('/v1/templates/merge-tags', MergeTagCatalogue),
    staleTime: 60_000,
  });

/** Contacts to preview as: the contacts search (starts with e-mail, wallet or name), first 10. */
export const searchContacts = (search: string) =>
  api.get('/v1/contacts', ContactPage, { searchString: search, perPage: 10, page: 1 });

export const invalidateTemplates = (client: QueryClient) => client.invalidateQueries({ queryKey: TEMPLATES_KEY });

/**
 * An image for the designer, uploaded as the community page's are (spec section 7): POST
 * /v1/files/s3-presigned-url {type}, then PUT the file to the signed URL with its Content-Type and no
 * Authorization. Said to be a template image, with its file name, so the image library offers it
 * again. Answers the stored address.
 */
export async function uploadImage(file: File): Promise<string> {
  const signed = await api.post('/v1/files/s3-presigned-url', PresignResponse, {
    type: file.type,
    purpose: 'template_image',
    name: file.name.slice(0, UPLOAD_NAME_MAX),
  });
  const response = await fetch(signed.url, { method: 'PUT', body: file, headers: { 'Content-Type': file.type } });
  if (!response.ok) throw new Error(`The image could not be uploaded (${response.status}).`);
  return signed.fileUrl;
}

/** PUT /v1/templates/{id}/gallery (super admins, the platform's templates): in or out of every community's gallery. */
export const setTemplateInGallery = (id: string, inGallery: boolean) =>
  api.put(`/v1/templates/${id}/gallery`, TemplateGalleryBody, { in_gallery: inGallery });

/** The images of the image library on a page (newest first). */
export const TEMPLATE_IMAGES_PER_PAGE = 24;

/** The tenant's images uploaded for templates (GET /v1/files/template-images), a page at a time. */
export const templateImagesQuery = () =>
  infiniteQueryOptions({
    queryKey: [...TEMPLATES_KEY, 'images'],
    queryFn: ({ pageParam }) =>
      api.get('/v1/files/template-images', TemplateImagePage, { page: pageParam, perPage: TEMPLATE_IMAGES_PER_PAGE }),
    initialPageParam: 1,
    getNextPageParam: (last) => last.pagination.next ?? undefined,
  });
