// The one @cairn/client instance of the app (cookie mode: no token, the browser sends the `cairn_session`
// cookie). Only the modules of web/src/api import it: components import their queries and calls from
// there and never call fetch, so a change of the client's call style is an edit of web/src/api alone.
import { createClient } from '@cairn/client';

export const cairn = createClient({ baseUrl: window.location.origin });

/** The page size of the app's lists (a list loads the next page as it scrolls). */
export const PAGE_SIZE = 100;
