"""What a run found, for people and CI: the migration report and the check
command's findings in its output formats (text, JSON, SARIF, GitHub, JUnit,
HTML, CSV)."""
