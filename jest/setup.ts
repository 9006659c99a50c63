import '@testing-library/jest-dom';
import { configure } from '@testing-library/react';

// Testing Library's findBy* and waitFor give up after 1 s by default. CI runs Jest's workers on two
// shared cores, where a screen that appears after a fetch and a state update took longer than that (two
// runs failed there on waits that pass alone). They wait up to 5 s; a state that never comes still fails.
configure({ asyncUtilTimeout: 5000 });
