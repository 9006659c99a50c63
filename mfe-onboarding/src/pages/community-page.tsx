import '../styles.css';
import { CommunityScreen } from '../features/community/community-screen';

/** Community Page (manage_community): the tenant's public community page. */
export default function CommunityPage() {
  return <CommunityScreen />;
}
