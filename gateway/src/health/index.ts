/** Health: `/health` (liveness and the job queues' counts). */
export { healthRoutes as healthArea } from './routes';
