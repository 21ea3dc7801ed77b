<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE" sourcelanguage="en">
<context>
    <name>kernel/fuzz</name>
    <message numerus="yes">
        <location filename="extension/ezfind/templates/class/tree.tpl" line="751"/>
        <source>%n e-mail address(s) saved</source>
        <translation>
            <numerusform>%n E-Mail-Adresse gespeichert</numerusform>
            <numerusform>%n E-Mail-Adressen gespeichert</numerusform>
        </translation>
    </message>
    <message>
        <location filename="extension/ezfind/templates/class/tree.tpl" line="573"/>
        <location line="+21"/>
        <location line="+12"/>
        <source>Create selected orders</source>
        <translation type="unfinished">Ausgewählte Bestellungen erstellen</translation>
    </message>
    <message>
        <location filename="extension/ezfind/templates/class/tree.tpl" line="891"/>
        <source>Remove selected e-mail addresses</source>
        <translation>Ausgewählte E-Mail-Adressen entfernen</translation>
    </message>
    <message>
        <location filename="extension/ezfind/templates/class/tree.tpl" line="521"/>
        <location line="+34"/>
        <source>Delete</source>
        <translation>Löschen</translation>
    </message>
    <message numerus="yes">
        <location filename="extension/ezfind/templates/class/tree.tpl" line="518"/>
        <source>%n translation(s) translated</source>
        <comment>Column header</comment>
        <translation>
            <numerusform>%n Übersetzung übersetzt</numerusform>
            <numerusform>%n Übersetzungen übersetzt</numerusform>
        </translation>
    </message>
    <message>
        <location filename="extension/ezfind/templates/class/tree.tpl" line="46"/>
        <location line="+63"/>
        <source>The &apos;language&apos; field is required.</source>
        <translation>Das Feld &apos;Sprache&apos; muss ausgefüllt werden.</translation>
    </message>
    <message>
        <location filename="extension/ezfind/templates/class/tree.tpl" line="273"/>
        <source>Upload</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
