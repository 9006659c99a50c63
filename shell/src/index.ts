// With asyncStartup the federation runtime initialises before this entry runs.
import './styles.css';
import { boot } from './bootstrap';

void boot();
