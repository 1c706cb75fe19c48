"""Packaging for ntrain: every field comes from settings.ini (the nbdev 2 layout)."""
from configparser import ConfigParser
import setuptools

cfg = ConfigParser(delimiters=['='])
cfg.read('settings.ini', encoding='utf-8')
cfg = cfg['DEFAULT']

licenses = {'apache2': ('Apache Software License 2.0', 'OSI Approved :: Apache Software License')}
statuses = ['1 - Planning', '2 - Pre-Alpha', '3 - Alpha', '4 - Beta', '5 - Production/Stable']
py_versions = '3.9 3.10 3.11 3.12 3.13'.split()
lic = licenses[cfg['license']]
min_python = cfg['min_python']

def reqs(key): return cfg.get(key, '').split()

extras = {k: reqs(f'{k}_requirements') for k in ('examples', 'tensorboard', 'mlflow', 'dev')}

setuptools.setup(
    name=cfg['lib_name'],
    version=cfg['version'],
    description=cfg['description'],
    long_description=open('README.md', encoding='utf-8').read(),
    long_description_content_type='text/markdown',
    author=cfg['author'],
    author_email=cfg['author_email'],
    url=cfg['git_url'],
    license=lic[0],
    keywords=cfg['keywords'],
    classifiers=[
        'Development Status :: ' + statuses[int(cfg['status'])],
        'Intended Audience :: ' + cfg['audience'].title(),
        'License :: ' + lic[1],
        'Natural Language :: ' + cfg['language'].title(),
    ] + ['Programming Language :: Python :: ' + o for o in py_versions[py_versions.index(min_python):]],
    packages=setuptools.find_packages(include=['ntrain', 'ntrain.*']),
    include_package_data=True,
    install_requires=reqs('requirements'),
    extras_require=extras,
    python_requires='>=' + min_python,
    zip_safe=False,
    entry_points={
        'console_scripts': cfg['console_scripts'].split(),
        'nbdev': [f"{cfg['lib_path']}={cfg['lib_path']}._modidx:d"],
    },
)
