// uPlot's style sheet, in a module of its own so it loads with the first chart (dynamic import).
import 'uplot/dist/uPlot.min.css';
