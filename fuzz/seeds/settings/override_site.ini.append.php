<?php /* #?ini charset="utf-8"?

[DatabaseSettings]
DatabaseImplementation=ezmysqli
Server=db.internal
Port=3306
User=example
Password=s3cret#1   ## the single # belongs to the password
Database=example_prod

[ExtensionSettings]
# extends the list of the base file
ActiveExtensions[]=ezfind
ActiveExtensions[]=ezflow

[SiteSettings]
SiteName=Example Publishing
SiteURL=www.example.com
SiteList[]
SiteList[]=site
SiteList[]=eng
SiteList[]=admin
MetaDataArray[author]=Example Publishing Group

[SiteAccessSettings]
AvailableSiteAccessList[]
AvailableSiteAccessList[]=site
AvailableSiteAccessList[]=eng
AvailableSiteAccessList[]=admin
HostMatchMapItems[]

[MailSettings]
Transport=SMTP
TransportServer=smtp.example.com
AdminEmail=editors@example.com

[DebugSettings]
DebugOutput=disabled
# nothing is logged unconditionally on production
AlwaysLog[]

[FileSettings]
VarDir=var/example_prod

[URLTranslator]
UserParameters=enabled
*/ ?>
