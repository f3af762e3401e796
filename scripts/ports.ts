// The local stack's ports, checked before anything is started on them: a port another program holds is reported as
// such, naming the variable that moves it, instead of as a server that keeps failing (PostgreSQL's last words were
// "database system is shut down").
import net from 'node:net';

export interface PortClaim {
  port: number;
  host: string;
  /** The environment variable that sets this port. */
  variable: string;
  /** How the port follows from the variable, when it is not the variable's value itself ("PORT + 1"). */
  derived?: string;
}

export class PortInUseError extends Error {
  override name = 'PortInUseError';

  constructor(claim: PortClaim) {
    super(`port ${claim.port} is in use; set ${claim.variable} to another${claim.derived ? ` (this port is ${claim.derived})` : ''}`);
  }
}

/** Whether a server could listen on host:port now (what the server about to start will try). */
export function canListen(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/** The error for the first claimed port that is taken; null when all are free. */
export async function portInUse(claims: readonly PortClaim[]): Promise<PortInUseError | null> {
  const free = await Promise.all(claims.map((claim) => canListen(claim.port, claim.host)));
  const taken = claims.find((_, i) => !free[i]);
  return taken ? new PortInUseError(taken) : null;
}
