import { DashboardApp } from './app/app';

// The bundle is loaded as a module script, so the document is parsed by now.
void new DashboardApp().start();
