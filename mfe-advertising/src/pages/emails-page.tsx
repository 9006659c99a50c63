import '../styles.css';
import { PlannedPage } from '@console/shared/layout';

export default function Page() {
  return (
    <PlannedPage title="Advertising E-mails" description="E-mails that advertisers send to opted-in communities." />
  );
}
