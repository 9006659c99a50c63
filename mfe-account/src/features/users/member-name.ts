/** How a member or an invitee is named in the grid, the dialogs and the toasts: first and last name, else the e-mail. */
export function memberName(member: { first_name: string; last_name: string; email: string }): string {
  return `${member.first_name} ${member.last_name}`.trim() || member.email;
}
