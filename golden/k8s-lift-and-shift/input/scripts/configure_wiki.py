import os

path = "/var/www/html/wiki/LocalSettings.php"
with open(path) as f:
    text = f.read()
text = text.replace("@SITE_NAME@", os.environ["SITE_NAME"])
with open(path, "w") as f:
    f.write(text)
