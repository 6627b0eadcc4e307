// The supervisor's interventions, each behind a dialog that asks for a reason (and, for a void,
// an explicit confirmation): pause, void (or a request for a second supervisor), approve a void,
// correct a face-down card, end the shoe. `run(path, body, done)` posts and reports.
import { ask, flash } from './console.js';
import { slotText } from './names.js';

export function supervisorDialogs(run) {
  async function pause(t, path) {
    const values = await ask({
      title: `Pause ${t.name}`,
      text: 'Timers stop until the round is resumed.',
      confirmLabel: 'Pause the round',
      fields: [{ name: 'reason', label: 'Reason', kind: 'textarea' }],
    });
    if (values) await run(`${path}/pause`, { reason: values.reason }, 'Paused');
  }

  async function voidRound(t, path) {
    const roundId = t.round.id;
    const roundNumber = t.round.number;
    const values = await ask({
      title: `Void round ${t.round.number} at ${t.name}`,
      text: 'The round is cancelled: every bet of the round is refunded, nobody wins or loses.',
      confirmLabel: 'Void the round',
      danger: true,
      fields: [
        { name: 'reason', label: 'Reason', kind: 'textarea' },
        {
          name: 'confirmed',
          label: 'I confirm: void this round and refund every bet',
          kind: 'checkbox',
        },
      ],
    });
    if (!values) return;
    // The round this dialog was opened for: the service refuses if another one is in play now.
    const result = await run(`${path}/void`, { reason: values.reason, roundId });
    if (!result) return;
    if (result.reply?.pendingApproval) {
      flash(
        `Void requested (#${result.reply.requestId}): a second supervisor must approve it.`,
        'warn',
      );
    } else {
      flash(`Round ${roundNumber} voided: every bet refunded (see the action log).`, 'ok');
    }
  }

  async function approve(t, action) {
    const values = await ask({
      title: `Approve void #${action.id}`,
      text: `${action.by} asked to void a round at ${t.name}: ${action.reason}`,
      confirmLabel: 'Approve and void',
      danger: true,
      fields: [{ name: 'confirmed', label: 'I confirm the void', kind: 'checkbox' }],
    });
    if (values)
      await run(
        `/tables/${encodeURIComponent(t.tableId)}/void-requests/${action.id}/approve`,
        {},
        'Void approved: every bet refunded',
      );
  }

  async function correct(t, path, slots) {
    const roundId = t.round?.id;
    const values = await ask({
      title: `Correct a card at ${t.name}`,
      text: 'Replaces a face-down card before it is revealed; the old and the new card are both kept.',
      confirmLabel: 'Correct the card',
      fields: [
        {
          name: 'slot',
          label: 'Slot',
          kind: 'select',
          options: slots.map((c) => ({
            value: c.slot,
            label: `${slotText(c.slot)} (now ${c.card})`,
          })),
        },
        {
          name: 'card',
          label: 'Correct card',
          // Lower case too (it is sent upper-cased): "qh" typed on a touchscreen is QH.
          pattern: '[2-9TJQKAtjqka][SHDCshdc]',
          hint: 'rank then suit, e.g. QH or 7S',
        },
        { name: 'reason', label: 'Reason', kind: 'textarea' },
      ],
    });
    if (values)
      await run(
        `${path}/correct-card`,
        { slot: values.slot, card: values.card.toUpperCase(), reason: values.reason, roundId },
        `${slotText(values.slot)} corrected`,
      );
  }

  async function endShoe(t, path) {
    const values = await ask({
      title: `End the shoe at ${t.name}`,
      text: 'Between rounds only: the shoe is closed and a new one is started.',
      confirmLabel: 'End the shoe',
      danger: true,
      fields: [{ name: 'reason', label: 'Reason', kind: 'textarea' }],
    });
    if (values) await run(`${path}/end-shoe`, { reason: values.reason }, 'Shoe ended');
  }

  return { pause, voidRound, approve, correct, endShoe };
}
