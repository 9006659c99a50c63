import { TEAM_PRESET_LABELS } from '@console/shared/access';
import type { TeamEvent } from '@console/shared/contracts';

/** What happened, in one sentence about whom it was (the Activity tab's "What" column). */
export function teamEventText(event: TeamEvent): string {
  const whom = event.subject.email;
  const preset = event.preset ? TEAM_PRESET_LABELS[event.preset] : null;
  switch (event.kind) {
    case 'invited':
      return preset ? `Invited ${whom} as ${preset}` : `Invited ${whom}`;
    case 'access_changed':
      return preset ? `Changed the access of ${whom} to ${preset}` : `Changed the access of ${whom}`;
    case 'removed':
      return `Removed ${whom} from the team`;
    case 'impersonated':
      return `Acted as ${whom}`;
    case 'password_changed':
      return `Changed the password of ${whom}`;
    case 'email_changed':
      return event.previous_email
        ? `Changed the e-mail address ${event.previous_email} to ${whom}`
        : `Changed the e-mail address of ${whom}`;
  }
}
