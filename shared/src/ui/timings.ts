/**
 * UI timings and limits of spec section 9, in one place. Components import these; they never
 * repeat the numbers.
 */

/** Dialog enter transition (ms). */
export const DIALOG_ENTER_MS = 300;
/** Dialog leave transition (ms). */
export const DIALOG_LEAVE_MS = 200;

/** Dropdown opening delay on hover (ms). */
export const DROPDOWN_DELAY_MS = 300;
/** Gap between a dropdown trigger and its menu (px). */
export const DROPDOWN_OFFSET = 10;
/** Default dropdown placement. */
export const DROPDOWN_PLACEMENT = 'bottom';
/** Width of the header's profile menu (px). */
export const PROFILE_MENU_WIDTH = 170;

/** Tooltip placement. */
export const TOOLTIP_PLACEMENT = 'top';
/** Tooltip maximum width (px). */
export const TOOLTIP_MAX_WIDTH = 350;

/** Default toast auto-close (ms). */
export const TOAST_DURATION = 5000;
/** Auto-close of widget-related toasts (ms). */
export const TOAST_SHORT_DURATION = 2000;
/**
 * Where toasts show: bottom-centre, clear of page actions, which sit at the top (page headers, the
 * designer's Preview and Send test) and at the right (panels). Spec section 9 says top-right;
 * they sit here because a toast there covered the actions it followed (docs/decisions.md).
 */
export const TOAST_POSITION = 'bottom-center';
/** Distance of the toasts from the bottom edge of the window (px). */
export const TOAST_OFFSET_PX = 24;
/** Toast collapse animation (ms). */
export const TOAST_COLLAPSE_MS = 300;
/** A non-`multiple` toast with the same text as one shown less than this long ago is not shown again (ms). */
export const TOAST_DEDUPE_MS = 390;

/** Delay before a copy field takes focus (ms). */
export const COPY_FOCUS_DELAY_MS = 100;
/** An error dialog appears this long after the confirm dialog closed (ms). */
export const ERROR_DIALOG_DELAY_MS = 100;
/** Carousel auto-advance interval (ms). */
export const CAROUSEL_INTERVAL_MS = 3000;
/** The spec's generic dismiss duration (ms). */
export const DISMISS_MS = 300;
