import { useEffect } from 'react';

/** The tab's title: the view's, then Cairn. */
export function useTitle(title: string): void {
  useEffect(() => {
    document.title = title ? `${title} · Cairn` : 'Cairn';
  }, [title]);
}
