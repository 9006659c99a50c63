/**
 * Runs of carriers asked for after their messages commit, coalesced per carrier: while one request for
 * a run is on its way, later ones are folded into one more request made after it (so every message
 * committed before a request has a run queued after it). The answer to the API call does not wait for
 * it; a process stopped before it leaves the rows queued, and the next start queues every carrier
 * (campaigns/jobs.ts: campaigns that are 'sending', which carriers always are).
 */
export class CarrierKicks {
  private readonly state = new Map<string, 'asking' | 'again'>();

  constructor(
    private readonly ask: (carrierId: string) => Promise<void>,
    private readonly failed: (error: unknown) => void,
  ) {}

  kick(carrierId: string): void {
    if (this.state.has(carrierId)) {
      this.state.set(carrierId, 'again');
      return;
    }
    this.state.set(carrierId, 'asking');
    void this.loop(carrierId);
  }

  private async loop(carrierId: string): Promise<void> {
    for (;;) {
      try {
        await this.ask(carrierId);
      } catch (error) {
        this.failed(error);
      }
      if (this.state.get(carrierId) !== 'again') {
        this.state.delete(carrierId);
        return;
      }
      this.state.set(carrierId, 'asking');
    }
  }
}
