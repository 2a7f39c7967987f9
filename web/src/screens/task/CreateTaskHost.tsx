// Mounted once in the signed-in layout: opens the create-task dialog when anything asks for it (`C`,
// the palette's command: lib/commands.ts). The dialog's code loads the first time it is asked for.
import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { onCreateTaskRequest } from '../../lib/commands.ts';

const CreateTaskDialog = lazy(() =>
  import('./CreateTaskDialog.tsx').then((module) => ({ default: module.CreateTaskDialog })),
);

export function CreateTaskHost() {
  const [asked, setAsked] = useState<{ open: boolean; teamKey: string | undefined } | null>(null);
  useEffect(() => onCreateTaskRequest(({ teamKey }) => setAsked({ open: true, teamKey })), []);
  const close = useCallback(() => setAsked((was) => (was ? { ...was, open: false } : was)), []);
  if (!asked) return null;
  return (
    <Suspense fallback={null}>
      <CreateTaskDialog open={asked.open} teamKey={asked.teamKey} onClose={close} />
    </Suspense>
  );
}
