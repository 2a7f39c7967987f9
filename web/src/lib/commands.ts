// App-wide commands that one feature asks for and another carries out, without importing each other:
// the palette, a shortcut or a button asks; the feature that owns the dialog listens. A DOM event on
// window, because the asker and the listener are in different trees of the app and hold no shared state.

/** Ask the app to open its "create a task" dialog, preset with a team (publicId or id) when given. */
export function requestCreateTask(preset: { teamKey?: string } = {}): void {
  window.dispatchEvent(new CustomEvent(CREATE_TASK, { detail: preset }));
}

/** Listen for requestCreateTask; returns the function that stops listening (a useEffect cleanup). */
export function onCreateTaskRequest(listener: (preset: { teamKey?: string }) => void): () => void {
  const handle = (event: Event) => listener((event as CustomEvent<{ teamKey?: string }>).detail);
  window.addEventListener(CREATE_TASK, handle);
  return () => window.removeEventListener(CREATE_TASK, handle);
}

const CREATE_TASK = 'cairn:create-task';
