import { useEffect, useRef, useState, type RefObject } from 'react';
import { useQuery } from '@tanstack/react-query';
import { starterThumbnailQuery, thumbnailQuery } from './api';

/** The e-mail is laid out at this width and drawn at THUMB_SCALE. */
const EMAIL_WIDTH = 600;
const THUMB_SCALE = 0.2;
const THUMB_W = EMAIL_WIDTH * THUMB_SCALE;
const THUMB_H = 150;

/** True once the element has come near the viewport (or at once where IntersectionObserver is missing). */
function useSeen<E extends Element>() {
  const ref = useRef<E>(null);
  const [seen, setSeen] = useState(() => typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    const node = ref.current;
    if (seen || !node) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) setSeen(true);
      },
      { rootMargin: '200px' },
    );
    observer.observe(node);
    return () => observer.disconnect();
  }, [seen]);
  return { ref, seen };
}

/**
 * A row's thumbnail: the current version's compiled HTML (GET …/html), fetched only once the row is
 * visible, drawn scaled down in a sandboxed iframe (no scripts, no same-origin, not focusable). It is a
 * picture of the design, hidden from assistive technology (the row's name says what it is).
 */
export function TemplateThumbnail({ id, version }: { id: string; version: number }) {
  const { ref, seen } = useSeen<HTMLDivElement>();
  const html = useQuery({ ...thumbnailQuery(id, version), enabled: seen });
  return <Thumbnail frameRef={ref} html={html.data?.html} />;
}

/** A starter's thumbnail in the gallery, drawn as the rows' are (the starter merged for sample values). */
export function StarterThumbnail({ starter }: { starter: string }) {
  const { ref, seen } = useSeen<HTMLDivElement>();
  const html = useQuery({ ...starterThumbnailQuery(starter), enabled: seen });
  return <Thumbnail frameRef={ref} html={html.data?.html} />;
}

function Thumbnail({ frameRef, html }: { frameRef: RefObject<HTMLDivElement | null>; html: string | undefined }) {
  return (
    <div
      ref={frameRef}
      aria-hidden="true"
      data-testid="template-thumbnail"
      className="relative shrink-0 overflow-hidden rounded border border-slate-200 bg-slate-50"
      style={{ width: THUMB_W, height: THUMB_H }}
    >
      {html !== undefined && (
        <iframe
          sandbox=""
          srcDoc={html}
          title="Template thumbnail"
          tabIndex={-1}
          scrolling="no"
          className="pointer-events-none absolute top-0 left-0 origin-top-left border-0 bg-white"
          style={{ width: EMAIL_WIDTH, height: THUMB_H / THUMB_SCALE, transform: `scale(${THUMB_SCALE})` }}
        />
      )}
    </div>
  );
}
