"""Each ruleset's pages (:class:`yarnlog.web.pages.Pages`), registered under ``yarnlog.pages`` by ruleset name."""
