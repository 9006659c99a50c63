import { useEffect, useRef } from 'react';
import { useSearchParams } from '@console/shared/router';
import { notify } from '@console/shared/ui';
import { messageOf } from '@console/shared/api';
import type { Contact } from '@console/shared/contracts';
import { fetchContact } from './api';

/** The URL parameter that opens one contact: a contact's page is `/engagement/contacts?contact=<id>`. */
export const CONTACT_PARAM = 'contact';
const ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Opens the contact a link names (`?contact=<id>`, from other screens: an on-chain event's contacts) in
 * the contact's slide-over, once per link followed; the parameter is removed when it opens.
 */
export function useLinkedContact(enabled: boolean, open: (contact: Contact) => void) {
  const [params, setParams] = useSearchParams();
  const id = enabled ? (params.get(CONTACT_PARAM) ?? '') : '';
  const opened = useRef<string | null>(null);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  useEffect(() => {
    if (!ID_PATTERN.test(id) || opened.current === id) return;
    opened.current = id;
    fetchContact(id).then(
      (contact) => {
        if (!mounted.current) return;
        open(contact);
        setParams(
          (current) => {
            const next = new URLSearchParams(current);
            next.delete(CONTACT_PARAM);
            return next;
          },
          { replace: true },
        );
      },
      (error: unknown) => {
        if (mounted.current) notify.error(messageOf(error, 'The contact could not be loaded.'));
      },
    );
  }, [id, open, setParams]);
}
