// A task's page: /tasks/<key>, the key its number (`142`), its code as people say it (`ENG-142`) or
// its UUID, so a link from a list, the palette or a chat message opens it.
import { createRoute } from '@tanstack/react-router';
import { appRoute } from '../../routes/app.tsx';
import { TaskPage } from './TaskPage.tsx';

export const taskRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/tasks/$taskKey',
  component: TaskPage,
});
