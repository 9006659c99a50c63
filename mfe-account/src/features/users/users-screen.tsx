import { useMemo } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { TeamMember } from '@console/shared/contracts';
import { ImpersonateButton, PageHeader } from '@console/shared/layout';
import { QueryGrid, useListQuery } from '@console/shared/lists';
import { useDialogSlot } from '@console/shared/overlays';
import type { ConsoleUser } from '@console/shared/session';
import { Button } from '@console/shared/ui';
import { rowActions } from './access-choice';
import { MEMBERS_KEY, fetchMembers } from './api';
import { EditAccessDialog } from './edit-access-dialog';
import { InvitationsSection } from './invitations-section';
import { InviteMemberDialog } from './invite-member-dialog';
import { memberColumns, type MemberSortField } from './member-columns';
import { memberName } from './member-name';
import { RemoveMemberDialog } from './remove-member-dialog';
import { TeamTabs } from './team-tabs';

type DialogRequest = { kind: 'invite' } | { kind: 'edit' | 'remove'; member: TeamMember };

/**
 * Manage Users: the team grid (search, sort and pages as every list, spec section 4) with Edit access,
 * Remove and Impersonate per row, Invite member, and the invitations not accepted yet.
 */
export function UsersScreen({ me }: { me: ConsoleUser }) {
  const list = useListQuery<MemberSortField>({ defaultSort: { field: 'created_at', order: 'desc' } });
  const members = useQuery({
    queryKey: [...MEMBERS_KEY, list.query],
    queryFn: () => fetchMembers(list.query),
    placeholderData: keepPreviousData,
  });
  const { dialog, open, close } = useDialogSlot<DialogRequest>();
  const canManage = me.permissions.includes('manage_users');

  const columns = useMemo(() => {
    return memberColumns(me._id, (member) => {
      const actions = rowActions(me, member);
      const name = memberName(member);
      return (
        <span className="inline-flex items-center gap-3">
          {actions.manage && (
            <>
              <Button
                variant="link"
                aria-label={`Edit access of ${name}`}
                onClick={() => open({ kind: 'edit', member })}
              >
                Edit access
              </Button>
              <Button
                variant="link"
                className="text-red-700"
                aria-label={`Remove ${name}`}
                onClick={() => open({ kind: 'remove', member })}
              >
                Remove
              </Button>
            </>
          )}
          {actions.reason && <span className="text-xs text-slate-500">{actions.reason}</span>}
          {actions.impersonate && <ImpersonateButton user={member} />}
        </span>
      );
    });
  }, [me, open]);

  const openInvite = () => open({ kind: 'invite' });

  return (
    <section>
      <PageHeader
        title="Manage Users"
        description="The people who work on your community in this console, and what each of them may do."
        actions={canManage ? <Button onClick={openInvite}>Invite member</Button> : undefined}
      />
      <TeamTabs me={me} />
      <QueryGrid<TeamMember, MemberSortField>
        label="Team members"
        list={list}
        page={members.data}
        error={members.error?.message}
        search={{ label: 'Search members', placeholder: 'Search by name or e-mail' }}
        columns={columns}
        rowKey={(m) => m._id}
        loading={members.isFetching}
        empty={list.state.searchString ? 'No members match your search.' : 'No members found.'}
      />
      {canManage && <InvitationsSection />}
      {dialog.kind === 'invite' && (
        <InviteMemberDialog key={dialog.seq} granter={me} open={dialog.open} onClose={close} />
      )}
      {dialog.kind === 'edit' && (
        <EditAccessDialog key={dialog.seq} member={dialog.member} granter={me} open={dialog.open} onClose={close} />
      )}
      {dialog.kind === 'remove' && (
        <RemoveMemberDialog
          key={dialog.seq}
          member={dialog.member}
          tenantName={me.tenant_name}
          open={dialog.open}
          onClose={close}
        />
      )}
    </section>
  );
}
