<?php /* #?ini charset="utf-8"?

[VersionManagement]
DefaultVersionHistoryLimit=20
VersionHistoryClass[article]=25
VersionHistoryClass[blog_post]=10

[EditSettings]
AutoPublishClassList[]=comment
*/ ?>
