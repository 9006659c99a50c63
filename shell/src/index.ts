// An ordinary bundle: the federation runtime loads with the first remote (src/federation/).
import './styles.css';
import { boot } from './bootstrap';

void boot();
