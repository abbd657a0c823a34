"""Art and identity (issue 38 item 2): the role and team icons, each game's title and accent,
and the about page that credits every third-party asset."""
