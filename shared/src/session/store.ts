import { createStore, type StateCreator } from 'zustand/vanilla';
import Cookies from 'js-cookie';
import type { SessionUser } from '@console/shared/contracts/core';
import type { Feature } from '@console/shared/access';

/** The session user plus the client-side flags of spec section 3. */
export type ConsoleUser = SessionUser & { is_impersonating: boolean; enableExperimentalFeatures: boolean };

/** Auth state of spec section 3. */
export interface SessionSlice {
  user: ConsoleUser | null;
  token: string | null;
  busy: boolean;
  error: false | string | true;
  email: string;
  password: string;
  setField: (field: 'email' | 'password', value: string) => void;
  setBusy: (busy: boolean) => void;
  setError: (error: false | string | true) => void;
  signedIn: (token: string, user: ConsoleUser) => void;
  userLoaded: (user: ConsoleUser) => void;
  /** The gateway issued a new token for this same session (e.g. after a password change). */
  tokenReplaced: (token: string) => void;
  /** The access version of the loaded user, as the gateway's answers carry it (X-Session-Version). */
  sessionVersion: string | null;
  sessionVersionSeen: (version: string) => void;
  signedOut: () => void;
}

export type InfoDialogRequest = { title: string; html: string; mascot?: string };
export type ConfirmDialogRequest = {
  title: string;
  html: string;
  cancelText?: string | null;
  onConfirm: () => Promise<void> | void;
};
/** The plan picker (change plan dialog). `currentPriceId`, when the caller knows it, marks the current price. */
export type PlansDialogRequest = { currentPriceId?: string | null };
export type PlansDialogState = { open: boolean; currentPriceId: string | null };

/** Dialogs any bundle can ask the shell to show (the shell hosts them once). */
export interface DialogSlice {
  upgrade: { open: boolean; feature: Feature | null };
  info: InfoDialogRequest | null;
  confirm: ConfirmDialogRequest | null;
  plans: PlansDialogState;
  openUpgrade: (feature?: Feature | null) => void;
  closeUpgrade: () => void;
  showInfo: (request: InfoDialogRequest) => void;
  closeInfo: () => void;
  askConfirm: (request: ConfirmDialogRequest) => void;
  closeConfirm: () => void;
  /** Open the plan picker (the shell hosts it); for tenants with a billing customer id. */
  openPlans: (request?: PlansDialogRequest) => void;
  closePlans: () => void;
}

export type ConsoleState = SessionSlice & DialogSlice;

const sessionSlice: StateCreator<ConsoleState, [], [], SessionSlice> = (set) => ({
  user: null,
  token: typeof document === 'undefined' ? null : (Cookies.get('token') ?? null),
  busy: false,
  error: false,
  email: '',
  password: '',
  setField: (field, value) => set({ [field]: value } as Pick<SessionSlice, typeof field>),
  setBusy: (busy) => set({ busy }),
  setError: (error) => set({ error }),
  signedIn: (token, user) => set({ token, user, busy: false, error: false, password: '' }),
  userLoaded: (user) => set({ user }),
  tokenReplaced: (token) => set({ token }),
  sessionVersion: null,
  sessionVersionSeen: (sessionVersion) => set({ sessionVersion }),
  signedOut: () =>
    set({ token: null, user: null, email: '', password: '', busy: false, error: false, sessionVersion: null }),
});

const dialogSlice: StateCreator<ConsoleState, [], [], DialogSlice> = (set) => ({
  upgrade: { open: false, feature: null },
  info: null,
  confirm: null,
  plans: { open: false, currentPriceId: null },
  openUpgrade: (feature = null) => set({ upgrade: { open: true, feature } }),
  closeUpgrade: () => set((s) => ({ upgrade: { ...s.upgrade, open: false } })),
  showInfo: (info) => set({ info }),
  closeInfo: () => set({ info: null }),
  askConfirm: (confirm) => set({ confirm }),
  closeConfirm: () => set({ confirm: null }),
  openPlans: (request = {}) => set({ plans: { open: true, currentPriceId: request.currentPriceId ?? null } }),
  closePlans: () => set((s) => ({ plans: { ...s.plans, open: false } })),
});

type StoreHolder = typeof globalThis & {
  __consoleStore?: ReturnType<typeof makeStore>;
  __consoleStoreEvaluations?: number;
};

function makeStore() {
  return createStore<ConsoleState>()((...a) => ({ ...sessionSlice(...a), ...dialogSlice(...a) }));
}

const holder = globalThis as StoreHolder;
holder.__consoleStoreEvaluations = (holder.__consoleStoreEvaluations ?? 0) + 1;
if (holder.__consoleStoreEvaluations > 1) {
  // Tripwire: @console/shared must be a Module Federation singleton. A second evaluation means a
  // remote bundled its own copy; the global keeps one store, but the build is wrong.
  console.error(
    `[console] @console/shared evaluated ${holder.__consoleStoreEvaluations} times: check the shared singleton config`,
  );
}

/** One store for the shell and every remote. */
export const consoleStore = (holder.__consoleStore ??= makeStore());
