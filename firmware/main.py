# Smart pyramid firmware entry point: wiring only; everything lives in /lib/pyramid.
from pyramid import app

app.run()
