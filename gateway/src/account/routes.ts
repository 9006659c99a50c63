import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { EmailChangeBody, GeneralSettings, GeneralSettingsPatch, Profile, ProfilePatch } from '../contracts';
import { authenticate, authOf, cancelEmailChange, requestEmailChange, requirePermission, tenantOf } from '../auth';
import { bearer, errorResponses } from '../lib/openapi';
import { readProfile, updateProfile } from './profile';
import { readSettings, updateSettings } from './settings';

/** Your Profile (`/v1/profile`): any signed-in user, their own. */
export const profileRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = app.deps;
  const tags = ['account'];
  app.get(
    '',
    {
      onRequest: authenticate,
      schema: {
        tags,
        security: bearer,
        summary: 'Your profile',
        response: { 200: Profile, ...errorResponses(401) },
      },
    },
    async (req) => readProfile(deps, authOf(req)),
  );
  app.patch(
    '',
    {
      onRequest: authenticate,
      schema: {
        tags,
        security: bearer,
        summary: 'Change your names, avatar or time zone',
        description:
          'Only the given fields change. The avatar must be a `fileUrl` of an image uploaded for your tenant (for ' +
          'yourself when you have no tenant); ' +
          "null clears it. A null time zone follows the community's.",
        body: ProfilePatch,
        response: { 200: Profile, ...errorResponses(400, 401) },
      },
    },
    async (req) => updateProfile(deps, authOf(req), req.body),
  );
  app.post(
    '/email',
    {
      onRequest: authenticate,
      schema: {
        tags,
        security: bearer,
        summary: 'Change your sign-in e-mail address',
        description:
          'Checks the current password (sign-in guessing limits apply) and e-mails a confirmation link ' +
          '(`<console>/confirm-email?user_id=..&token=..`) to the new address, which becomes the sign-in ' +
          'address when the link is opened; the former address is then told. 403 while impersonating.',
        body: EmailChangeBody,
        response: { 200: Profile, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (req) => {
      const auth = authOf(req);
      await requestEmailChange(deps, auth, {
        email: req.body.email,
        currentPassword: req.body.current_password,
        ip: req.ip,
      });
      return readProfile(deps, auth);
    },
  );
  app.delete(
    '/email',
    {
      onRequest: authenticate,
      schema: {
        tags,
        security: bearer,
        summary: 'Cancel a change of your sign-in e-mail address',
        description: 'The address waiting for confirmation is forgotten and its link stops working.',
        response: { 200: Profile, ...errorResponses(401, 403) },
      },
    },
    async (req) => {
      const auth = authOf(req);
      await cancelEmailChange(deps, auth);
      return readProfile(deps, auth);
    },
  );
};

/** General Settings (`/v1/settings`): permission company_settings. */
export const settingsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps;
  const tags = ['account'];
  const onRequest = requirePermission('company_settings');
  app.get(
    '',
    {
      onRequest,
      schema: {
        tags,
        security: bearer,
        summary: "The community's general settings",
        response: { 200: GeneralSettings, ...errorResponses(401, 403) },
      },
    },
    async (req) => readSettings(db, tenantOf(req)),
  );
  app.patch(
    '',
    {
      onRequest,
      schema: {
        tags,
        security: bearer,
        summary: "Change the community's general settings",
        description:
          'Only the given fields change; null or blank text clears the sender name, reply-to and postal address. ' +
          'New e-mails start with the sender name (else the community name) and reply-to.',
        body: GeneralSettingsPatch,
        response: { 200: GeneralSettings, ...errorResponses(400, 401, 403) },
      },
    },
    async (req) => updateSettings(db, tenantOf(req), req.body),
  );
};
