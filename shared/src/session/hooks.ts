import { useStore } from 'zustand';
import { consoleStore, type ConsoleState } from './store';

/** Read the shared session store from any bundle. */
export function useConsole<T>(selector: (state: ConsoleState) => T): T {
  return useStore(consoleStore, selector);
}
