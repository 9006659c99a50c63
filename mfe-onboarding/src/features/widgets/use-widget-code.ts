import { useCallback, useState } from 'react';
import type { Widget, WidgetDetail } from '@console/shared/contracts';
import { fetchWidget } from './api';

/** Which widget's code the dialog shows; 'view code' fetches GET /v1/widgets/{id} first (errors only logged). */
export function useWidgetCode() {
  const [widget, setWidget] = useState<WidgetDetail | null>(null);
  const view = useCallback((row: Widget) => {
    fetchWidget(row._id).then(setWidget, () => {
      // Spec section 8: fetch errors are only logged (fetchWidget logs them).
    });
  }, []);
  const show = useCallback((detail: WidgetDetail) => setWidget(detail), []);
  const close = useCallback(() => setWidget(null), []);
  return { widget, view, show, close };
}
